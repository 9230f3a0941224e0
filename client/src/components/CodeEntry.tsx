import { Text, View } from '@tarojs/components';
import { useState } from 'react';
import { errorView, type ErrorView } from '../services/errors';
import BusyButton from './BusyButton';
import ErrorPanel from './ErrorPanel';
import { FieldHint, TextField } from './Field';

/** What the page asks for and how it names its parts (classes and test ids stay the page's). */
export interface CodeEntryProps {
  /** The page's BEM block: the input is `${block}__code`, the button `${block}__go`. */
  block: string;
  title: string;
  sub: string;
  placeholder: string;
  maxlength: number;
  /** What a code looks like once trimmed and upper-cased, and what to say when it does not. */
  pattern: RegExp;
  patternHint: string;
  testids: { code: string; submit: string };
  submitLabel: string;
  /** A code the page was opened with (a link carrying `?code=`). */
  initial?: string;
  /** Sends the code; a throw is shown in the error panel. */
  onSubmit: (code: string) => Promise<void>;
}

/**
 * A card with one code to type and send: the staff invite (packages/staff) and the comp claim
 * (pages/comp) both use it, so it lives in the main package, which a sub-package may import.
 */
export default function CodeEntry(p: CodeEntryProps) {
  const [code, setCode] = useState(p.initial ?? '');
  const [busy, setBusy] = useState(false);
  const [hint, setHint] = useState<string>();
  const [error, setError] = useState<ErrorView>();

  const submit = async () => {
    const c = code.trim().toUpperCase();
    if (!p.pattern.test(c)) return setHint(p.patternHint);
    setHint(undefined);
    setBusy(true);
    try {
      await p.onSubmit(c);
    } catch (e) {
      setError(errorView(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <View className="card">
        <Text className="card__title">{p.title}</Text>
        <Text className="card__sub">{p.sub}</Text>
        <TextField
          className={`${p.block}__code`}
          testid={p.testids.code}
          placeholder={p.placeholder}
          value={code}
          maxlength={p.maxlength}
          onInput={(v) => {
            setCode(v);
            setHint(undefined);
          }}
        />
        <FieldHint text={hint} />
        <BusyButton
          className={`btn btn--primary ${p.block}__go`}
          testid={p.testids.submit}
          busy={busy}
          onClick={() => void submit()}
        >
          {p.submitLabel}
        </BusyButton>
      </View>
      {error ? (
        <ErrorPanel error={error} onClose={() => setError(undefined)} onAction={() => setError(undefined)} />
      ) : null}
    </>
  );
}
