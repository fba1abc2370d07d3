import { Link } from 'react-router';
import { PageHeader } from '../ui/ui.tsx';

export function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" description="The console has no page at this address." />
      <p>
        <Link to="/">Go to the overview</Link>
      </p>
    </>
  );
}
