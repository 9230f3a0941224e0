import type { Loaded } from '../hooks/useLoad';
import type { ErrorView } from '../services/errors';
import { runRemedy } from '../utils/remedy';
import ErrorPanel from './ErrorPanel';
import Loading from './Loading';

/** The load's error with its way forward, which loads again where nothing more specific applies. */
function LoadError({ error, reload }: { error: ErrorView; reload: () => void }) {
  return <ErrorPanel variant="inline" error={error} onAction={() => runRemedy(error, {}, reload)} />;
}

/** What a page shows before its first data: the spinner, or the load's error. */
export default function LoadState({ loaded, text }: { loaded: Loaded<unknown>; text?: string }) {
  const { error, reload } = loaded;
  if (!error) return <Loading text={text} />;
  return <LoadError error={error} reload={reload} />;
}

/**
 * A list's first load inside a page that draws its own frame around it: until data came, the
 * spinner while loading and the error while there is one (both while reloading after an error).
 */
export function FirstLoad({ loaded }: { loaded: Loaded<unknown> }) {
  if (loaded.data) return null;
  const { error, reload } = loaded;
  return (
    <>
      {loaded.loading ? <Loading /> : null}
      {error ? <LoadError error={error} reload={reload} /> : null}
    </>
  );
}
