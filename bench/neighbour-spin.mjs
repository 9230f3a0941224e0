// One busy neighbour (neighbours.mjs): spins on a core until the process whose pid it is given
// has exited, so a bench killed without its `finally` leaves no spinning process behind. The pid
// comes as the argument: the neighbour's own process.ppid is read at its start-up, which may come
// after its parent died (it would then read init's, forever alive).
import { alive } from '../scripts/lib/alive.mjs';

const starter = Number(process.argv[2]);
// Asked every 10^7 turns (a few milliseconds): the spinning is the point, the check is not.
for (let i = 0; ; i++) if (i % 1e7 === 0 && !alive(starter)) process.exit(0);
