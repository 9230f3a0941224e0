// One process's share of an overload offer (offer.mjs offerFromProcesses): it runs the share it
// is sent, answers with its samples and exits.
import { phase } from './offer.mjs';

/** A paced share's start: tells the parent its connections are open, and waits for the start it is given. */
const ready = () =>
  new Promise((resolve) => {
    process.once('message', (m) => resolve(m.go));
    process.send({ ready: true });
  });

process.once('message', async (m) => {
  const r = await phase(m.url, m.tour, m.tokens, m.o, m.tag, m.share, ready);
  process.send(r, () => process.exit(0));
});
