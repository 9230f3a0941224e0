import type { KeyboardEvent } from 'react';

/**
 * onKeyDown of a form whose submit has consequences (creating a session puts every seat on sale
 * at the default price): Enter in a field, a date field most of all, confirms that field and
 * never submits the form; only the submit button does (walk-through #4). Text areas keep Enter.
 */
export function enterDoesNotSubmit(e: KeyboardEvent<HTMLFormElement>): void {
  if (e.key === 'Enter' && e.target instanceof HTMLInputElement) e.preventDefault();
}
