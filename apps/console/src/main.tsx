import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';
import { StatboardError } from './api.ts';
import { Shell } from './app/Shell.tsx';
import { ME_KEY, SessionProvider, useSession } from './app/session.tsx';
import { JoinWorkspace, SetupPage } from './pages/Setup.tsx';
import { SignInPage } from './pages/SignIn.tsx';
import { ErrorNotice, Loading } from './ui/ui.tsx';
import './styles.css';

// Pages load on first visit: the first screen needs only the shell and the overview.
const Overview = lazy(() => import('./pages/Overview.tsx').then((m) => ({ default: m.Overview })));
const Keys = lazy(() => import('./pages/Keys.tsx').then((m) => ({ default: m.Keys })));
const Servers = lazy(() => import('./pages/Servers.tsx').then((m) => ({ default: m.Servers })));
const Seasons = lazy(() => import('./pages/Seasons.tsx').then((m) => ({ default: m.Seasons })));
const Players = lazy(() => import('./pages/Players.tsx').then((m) => ({ default: m.Players })));
const Player = lazy(() => import('./pages/Player.tsx').then((m) => ({ default: m.Player })));
const Stats = lazy(() => import('./pages/Stats.tsx').then((m) => ({ default: m.Stats })));
const Leaderboards = lazy(() => import('./pages/Leaderboards.tsx').then((m) => ({ default: m.Leaderboards })));
const Online = lazy(() => import('./pages/Online.tsx').then((m) => ({ default: m.Online })));
const Users = lazy(() => import('./pages/Users.tsx').then((m) => ({ default: m.Users })));
const AuditLog = lazy(() => import('./pages/AuditLog.tsx').then((m) => ({ default: m.AuditLog })));
const Webhooks = lazy(() => import('./pages/Webhooks.tsx').then((m) => ({ default: m.Webhooks })));
const Webhook = lazy(() => import('./pages/Webhook.tsx').then((m) => ({ default: m.Webhook })));
const NotFound = lazy(() => import('./pages/NotFound.tsx').then((m) => ({ default: m.NotFound })));

// A 401 anywhere means the session ended: ask who is signed in again, which shows the sign-in page.
const signedOut = (error: unknown) => {
  if (error instanceof StatboardError && error.status === 401) void queryClient.invalidateQueries({ queryKey: ME_KEY });
};
const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: signedOut }),
  mutationCache: new MutationCache({ onError: signedOut }),
  defaultOptions: {
    queries: {
      retry: (count, error) => !(error instanceof StatboardError && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

function Console() {
  const session = useSession();
  if (session.isPending) return <Loading label="Starting the console…" lines={3} />;
  if (session.isError) {
    return (
      <main className="standalone">
        <ErrorNotice error={session.error} title="The console cannot reach the service" />
        <button type="button" onClick={() => void session.refetch()}>
          Try again
        </button>
      </main>
    );
  }
  const me = session.data;
  if (me === null) return <SignInPage />;
  if (me.needs_bootstrap || me.workspace_id === null) return <SetupPage me={me} />;
  return (
    <SessionProvider me={me}>
      <Shell>
        <Routes>
          <Route path="/" element={<Overview />} />
          <Route path="/keys" element={<Keys />} />
          <Route path="/servers" element={<Servers />} />
          <Route path="/seasons" element={<Seasons />} />
          <Route path="/players" element={<Players />} />
          <Route path="/players/:uuid" element={<Player />} />
          <Route path="/stats" element={<Stats />} />
          <Route path="/leaderboards" element={<Leaderboards />} />
          <Route path="/online" element={<Online />} />
          <Route path="/users" element={<Users />} />
          <Route path="/audit-log" element={<AuditLog />} />
          <Route path="/webhooks" element={<Webhooks />} />
          <Route path="/webhooks/:id" element={<Webhook />} />
          <Route path="/setup" element={<JoinWorkspace />} />
          <Route path="*" element={<NotFound />} />
        </Routes>
      </Shell>
    </SessionProvider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <Console />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
