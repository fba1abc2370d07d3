import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, lazy, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';
import { StatboardError } from './api.ts';
import { Shell } from './app/Shell.tsx';
import { ME_KEY, SessionProvider, useSession } from './app/session.tsx';
import { SetupPage } from './pages/Setup.tsx';
import { SignInPage } from './pages/SignIn.tsx';
import { PAGES } from './pages.ts';
import { ErrorNotice, Loading } from './ui/ui.tsx';
import './styles.css';

// Pages load on first visit: the first screen needs only the shell and the overview. The list of pages is
// pages.ts; each is the export of its name in pages/<name>.tsx (the setup and sign-in pages load at once).
const MODULES = import.meta.glob<Record<string, ComponentType>>([
  './pages/*.tsx',
  '!./pages/Setup.tsx',
  '!./pages/SignIn.tsx',
]);

function lazyPage(component: string) {
  const load = MODULES[`./pages/${component}.tsx`];
  if (!load) throw new Error(`pages.ts names ${component}, but there is no pages/${component}.tsx`);
  return lazy(() => load().then((m) => ({ default: m[component]! })));
}

const ROUTES = PAGES.map((p) => ({ path: p.path, Page: lazyPage(p.component) }));
const NotFound = lazyPage('NotFound');

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
          {ROUTES.map(({ path, Page }) => (
            <Route key={path} path={path} element={<Page />} />
          ))}
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
