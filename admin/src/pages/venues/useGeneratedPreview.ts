import { useCallback, useEffect, useRef, useState } from 'react';
import type { FormInstance } from 'antd';
import { hasChinese, type LayoutPreview } from '@showtix/shared-types';
import { errorText, fieldErrors } from '../../api/client';
import { generateLayout } from '../../api/venues';
import { toBlockSpec, type BlockForm } from './BlockEditor';

const EMPTY: LayoutPreview = { seats: [], duplicates: [], overlaps: 0 };
const DEBOUNCE_MS = 300;

export interface GeneratedPreview {
  generated: LayoutPreview;
  /** A request failure that names no field (a field's own error shows under the field). */
  problem?: string;
  /** The preview no longer shows the form: a block field is wrong, so nothing was generated. */
  stale: boolean;
  regenerate: () => void;
}

/**
 * The generator's live preview: regenerated (debounced) whenever a block changes. A wrong field
 * (a decimal 弧度, say) is marked on the field itself, by the form's rules or, failing those, by
 * the server's field errors, and the preview says it is stale instead of keeping old seats silently.
 */
export function useGeneratedPreview(form: FormInstance): GeneratedPreview {
  const [generated, setGenerated] = useState<LayoutPreview>(EMPTY);
  const [problem, setProblem] = useState<string>();
  const [stale, setStale] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const generate = useCallback(async () => {
    const all = (form.getFieldValue('blocks') as BlockForm[] | undefined) ?? [];
    const blocks = all.map((b, i) => ({ b, i })).filter(({ b }) => b?.section && b.rows && b.seatsPerRow);
    if (!(await blockFieldsValid(form))) return setStale(true);
    if (!blocks.length) return (setGenerated(EMPTY), setStale(false));
    try {
      setGenerated(await generateLayout(blocks.map(({ b }) => toBlockSpec(b))));
      setProblem(undefined);
      setStale(false);
    } catch (e) {
      setStale(true);
      const marked = markFields(form, fieldErrors(e), (n) => blocks[n]?.i);
      setProblem(marked ? undefined : errorText(e, String(e)));
    }
  }, [form]);

  const regenerate = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void generate(), DEBOUNCE_MS);
  }, [generate]);

  useEffect(() => {
    regenerate();
    return () => clearTimeout(timer.current);
  }, [regenerate]);
  return { generated, problem, stale, regenerate };
}

/** Runs the block fields' own rules; false when one of them fails. */
async function blockFieldsValid(form: FormInstance): Promise<boolean> {
  try {
    await form.validateFields(['blocks'], { recursive: true });
    return true;
  } catch (e) {
    // A validation overtaken by a newer edit rejects with no failed fields: that is not invalid.
    return !((e as { errorFields?: unknown[] }).errorFields?.length ?? 0);
  }
}

/**
 * Puts the server's field errors ("blocks.0.curve") under the form's fields; `blockIndex` maps the
 * index of a block in the request back to its place in the form. True when any field was marked.
 */
function markFields(
  form: FormInstance,
  errors: Map<string, string>,
  blockIndex: (n: number) => number | undefined,
) {
  const fields = [...errors].flatMap(([path, message]) => {
    const [head, n, field] = path.split('.');
    const i = head === 'blocks' ? blockIndex(Number(n)) : undefined;
    if (i === undefined || !field) return [];
    return [{ name: ['blocks', i, field], errors: [hasChinese(message) ? message : '数值不正确'] }];
  });
  form.setFields(fields);
  return fields.length > 0;
}
