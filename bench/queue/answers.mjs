// The waiting-room bench's reading of its answers: what its failed requests were, and whether
// admission ever went out of order (bench/queue/run.mjs).

/**
 * What went wrong with the requests a phase counted as errors, by kind: `<status> <error code>`
 * for an answer other than 200, the socket error's code (or `timeout`) for no answer at all.
 * A count alone ("join_errors: 1") says nothing about whether the product or the machine failed.
 */
export function errorKinds() {
  const kinds = {};
  const note = (kind) => (kinds[kind] = (kinds[kind] ?? 0) + 1);
  return {
    kinds,
    answer(status, body) {
      let code = '';
      try {
        code = JSON.parse(body)?.error?.code ?? '';
      } catch {
        /* not JSON */
      }
      note(`${status}${code ? ` ${code}` : ''}`);
    },
    /** A request with no answer (closed-loop.mjs's onError): a timeout, or its connection failed. */
    error(err) {
      note(err.timeout ? 'timeout' : (err.code ?? err.message));
    },
  };
}

/**
 * Admitted beyond the counter, or the counter seen going backwards (beyond 50 ms of skew), with
 * each kind counted apart, and how long after the higher counter a lower one was seen. Observations
 * are [received, status, sent]: `went_back_sent_after` counts the lower counters whose request was
 * sent only after the higher one had been received (the server really went back); the others
 * may be answers that sat in a busy load generator.
 */
export function outOfOrder(observations) {
  const kinds = {
    admitted_beyond_counter: 0,
    counter_went_back: 0,
    went_back_max_ms: 0,
    went_back_sent_after: 0,
  };
  const sorted = [...observations].sort((a, b) => a[0] - b[0]);
  let best = { t: 0, through: 0 };
  for (const [t, st, sentAt] of sorted) {
    if (st.admitted && st.position > st.admittedThrough) kinds.admitted_beyond_counter++;
    if (st.admittedThrough < best.through && t - best.t > 50) {
      kinds.counter_went_back++;
      kinds.went_back_max_ms = Math.max(kinds.went_back_max_ms, Math.round(t - best.t));
      if (sentAt > best.t) kinds.went_back_sent_after++;
    }
    if (st.admittedThrough >= best.through) best = { t, through: st.admittedThrough };
  }
  return { bad: kinds.admitted_beyond_counter + kinds.counter_went_back, kinds };
}

/** The fans in the order of the places their joins were given. */
export function joinOrder(places) {
  return places
    .map((p, i) => [p, i])
    .filter(([p]) => p)
    .sort((a, b) => a[0] - b[0])
    .map(([, i]) => i);
}
