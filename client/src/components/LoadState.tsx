import type { Loaded } from '../hooks/useLoad';
import { runRemedy } from '../utils/remedy';
import ErrorPanel from './ErrorPanel';
import Loading from './Loading';

/**
 * What a page shows before its first data: the spinner, or the load's error with its way forward
 * (which loads again where nothing more specific applies).
 */
export default function LoadState({ loaded, text }: { loaded: Loaded<unknown>; text?: string }) {
  const { error, reload } = loaded;
  if (!error) return <Loading text={text} />;
  return <ErrorPanel variant="inline" error={error} onAction={() => runRemedy(error, {}, reload)} />;
}
