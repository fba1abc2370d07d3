import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { api, ok } from '../api.ts';
import { Form, TextField } from '../ui/form.tsx';
import { enterWorkspace } from './session.tsx';

/**
 * A bootstrap token redeemed by the signed-in user: a plain one creates the first workspace, one made with
 * `npx statboard bootstrap-token --workspace W` (or logged at start for a workspace nobody owns) makes them owner
 * of W, whatever roles they have elsewhere. Afterwards the console acts in that workspace (the service remembers
 * the choice, as the header's picker does) and shows it.
 */
export function TokenForm({
  submit,
  pending,
  withName = false,
  extra,
  onDone,
}: {
  submit: string;
  pending: string;
  withName?: boolean;
  extra?: ReactNode;
  /** With the id of the workspace the token made the user owner of, once the console shows it. */
  onDone?: (workspaceId: string) => void;
}) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState('');
  const [name, setName] = useState('');
  const redeem = useMutation({
    mutationFn: () =>
      ok(
        api.POST('/api/v1/setup/bootstrap', {
          body: { token: token.trim(), ...(withName && name.trim() ? { workspace_name: name.trim() } : {}) },
        }),
      ),
    onSuccess: async ({ data }) => {
      setToken('');
      await enterWorkspace(queryClient, data.workspace_id);
      onDone?.(data.workspace_id);
    },
  });
  return (
    <Form
      mutation={redeem}
      errorTitle="The token was not accepted"
      submitLabel={submit}
      pendingLabel={pending}
      actions={extra}
    >
      <TextField
        label="Bootstrap token"
        name="token"
        hint={
          <>
            The service prints one in its log (the line <code>bootstrap token: stb_bootstrap_…</code>) when it starts
            with no workspace, or with a workspace nobody owns yet; or set <code>BOOTSTRAP_TOKEN</code>. A new one:{' '}
            <code>npx statboard bootstrap-token</code>, or <code>npx statboard bootstrap-token --workspace SLUG</code>{' '}
            to become owner of a workspace made with the CLI.
          </>
        }
        autoComplete="off"
        spellCheck={false}
        required
        value={token}
        onChange={setToken}
      />
      {withName ? (
        <TextField
          label="Workspace name (optional)"
          name="workspace_name"
          maxLength={120}
          placeholder="My Network"
          value={name}
          onChange={setName}
        />
      ) : null}
    </Form>
  );
}
