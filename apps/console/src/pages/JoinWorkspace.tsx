import { useEffect, useState } from 'react';
import { useMe } from '../app/session.tsx';
import { TokenForm } from '../app/token-form.tsx';

/**
 * `/setup` for a user who has a role already: redeem a token made for another workspace (`npx statboard
 * bootstrap-token --workspace W`), become its owner too, and act in it from then on.
 */
export function JoinWorkspace() {
  const me = useMe();
  const [joined, setJoined] = useState<string | null>(null);
  useEffect(() => {
    document.title = 'Join a workspace · Statboard';
  }, []);
  const workspace = me.workspaces.find((w) => w.id === joined);
  return (
    <>
      <h1>Join a workspace with a token</h1>
      <p>
        A bootstrap token made for a workspace makes whoever enters it an owner of that workspace, besides the roles
        they have already.
      </p>
      {joined !== null ? (
        <p className="notice" role="status">
          Done: you are an owner of {workspace?.name ?? 'the workspace the token was made for'}
          {me.workspace_id === joined ? ', and the console now shows it.' : '.'}
        </p>
      ) : null}
      <TokenForm submit="Join workspace" pending="Joining…" onDone={setJoined} />
    </>
  );
}
