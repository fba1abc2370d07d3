// What an upload may contain is shared with statboard-agent: the rules live in packages/game-files.
export * from '@statboard/game-files/upload-rules';
