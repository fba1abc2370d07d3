import { useState } from 'react';
import { useMe } from '../app/session.tsx';
import { TokenForm } from '../app/token-form.tsx';
import { PageHeader } from '../ui/ui.tsx';

/**
 * `/setup` for a user who has a role already: redeem a token made for another workspace (`npx statboard
 * bootstrap-token --workspace W`), become its owner too, and act in it from then on.
 */
export function JoinWorkspace() {
  const me = useMe();
  const [joined, setJoined] = useState<string | null>(null);
  const workspace = me.workspaces.find((w) => w.id === joined);
  return (
    <>
      <PageHeader
        title="Join a workspace with a token"
        description="A bootstrap token made for a workspace makes whoever enters it an owner of that workspace, besides the roles they have already."
      />
      {joined !== null ? (
        <p className="notice" role="status">
          Done: you are an owner of {workspace?.name ?? 'the workspace the token was made for'}
          {me.workspace_id === joined ? ', and the console now shows it.' : '.'}
        </p>
      ) : null}
      <div className="card narrow">
        <TokenForm submit="Join workspace" pending="Joining…" onDone={setJoined} />
      </div>
    </>
  );
}
