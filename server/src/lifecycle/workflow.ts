/**
 * Multi-step money flows as named steps, each naming its compensation (Medusa-style, tiny).
 * Steps run in order. When one fails with an error the workflow compensates (`compensateOn`),
 * the compensations of that step and of every step before it run, latest first, and the error
 * is thrown on for the caller's fallback (e.g. refund instead of honour). Other errors are thrown
 * as they are, uncompensated: a consumer retries the whole flow (every step is idempotent), and
 * undoing a step whose outcome is unknown (a commit whose answer was lost) could do harm.
 * Compensations must be idempotent: the failing step may have done nothing, part, or all.
 */
export interface WorkflowStep<C> {
  name: string;
  run(ctx: C): Promise<void>;
  /** Undoes run (what the step took); omitted when the step's own transaction rolls back. */
  compensate?(ctx: C): Promise<void>;
}

export interface Workflow<C> {
  readonly name: string;
  readonly steps: readonly WorkflowStep<C>[];
  run(ctx: C): Promise<void>;
}

export function workflow<C>(
  name: string,
  steps: WorkflowStep<C>[],
  compensateOn: (err: unknown) => boolean,
): Workflow<C> {
  return {
    name,
    steps,
    async run(ctx) {
      for (const [i, step] of steps.entries()) {
        try {
          await step.run(ctx);
        } catch (err) {
          if (!compensateOn(err)) throw err;
          for (const done of steps.slice(0, i + 1).reverse()) await done.compensate?.(ctx);
          throw err;
        }
      }
    },
  };
}
