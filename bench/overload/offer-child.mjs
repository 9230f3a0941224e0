// One process's share of an overload offer (offer.mjs offerFromProcesses): it runs the share it
// is sent, answers with its samples and exits.
import { phase } from './offer.mjs';

process.once('message', async (m) => {
  const r = await phase(m.url, m.tour, m.tokens, m.o, m.tag, m.share);
  process.send(r, () => process.exit(0));
});
