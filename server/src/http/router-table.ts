import type Router from '@koa/router';
import compose from 'koa-compose';
import type { Middleware } from 'koa';

/**
 * The literal start of a route's path, lower-cased: what every path it matches starts with, up
 * to case. path-to-regexp anchors a route's pattern at the start and matches its literal part
 * case-insensitively (a router's default), and `:`, `*`, `{`, `(`, `[`, `?`, `+`, `!` and `\`
 * are where its syntax begins; a trailing slash is left out, as a route may match without one.
 * undefined: a pattern that is not a string, which any path may match.
 */
export function literalStart(path: unknown): string | undefined {
  if (typeof path !== 'string') return undefined;
  const end = path.search(/[:*{}()[\]?+!\\]/);
  const lit = (end < 0 ? path : path.slice(0, end)).toLowerCase();
  return lit.length > 1 && lit.endsWith('/') ? lit.slice(0, -1) : lit;
}

/** The literal starts of a router's routes (not its `use` layers), '' when any path may match. */
function startsOf(router: Router): string[] {
  const starts = new Set<string>();
  for (const layer of router.stack) {
    // A `use` layer (no methods) runs only once one of the router's routes matched.
    if (layer.methods.length === 0) continue;
    starts.add(literalStart(layer.path) ?? '');
  }
  return [...starts];
}

/**
 * The API's routers as one middleware, each request running only the routers that have a route
 * its path could match, in their order. Mounted one after another (`app.use(r.routes())
 * .use(r.allowedMethods())` each), every request went through every router until one matched:
 * each matched its path against all its routes, emitted its not-found event and awaited the
 * rest; /livez, the seventh router, cost 113 µs of CPU against 68 µs when it came first (bench
 * ab, docs/benchmarks.md); a path no route has went through all 37, and the admin page's routes
 * are the 19th to the 37th router.
 *
 * The answer is the one the routers mounted one after another give (test/router-table.test.ts
 * holds the two side by side):
 * - A router left out has no route whose literal start is a prefix of the path (both lower-cased,
 *   literalStart), so none of its routes matches it: mounted, it would only have called the next
 *   router, adding to ctx.matched at most its `use` layers, which carry no methods and so change
 *   nothing allowedMethods answers (the one reader of ctx.matched).
 * - The routes are read once, here: a route added to a router later, or a prefix changed, would
 *   go unseen (every router is built whole before the app is).
 * - The last router always runs: its allowedMethods, the innermost, is the one that answers 405,
 *   501 or an OPTIONS from ctx.matched, as it did when every router ran. Every router must
 *   implement the same methods (their default), else the outer ones could answer otherwise: a
 *   router with other methods is refused here.
 * The routers that may match a path are those whose start is a prefix of the path's longest
 * matching start (all matching starts are prefixes of one path, so each is a prefix of the
 * longest), so one chain per start is composed once, and a path costs one pass over the starts.
 */
export function routerTable(routers: readonly Router[]): Middleware & { routers: readonly Router[] } {
  if (routers.length === 0) throw new Error('routerTable: no routers');
  const methods = routers[0]!.methods.join();
  if (routers.some((r) => r.methods.join() !== methods))
    throw new Error('routerTable: every router must implement the same methods');
  const each = routers.map((r) => [r.routes(), r.allowedMethods()] as Middleware[]);
  const table = routeStarts(routers);
  const chains = new Map<string, Middleware>();
  for (const s of [...table.starts, ''])
    chains.set(s, compose(table.routersAt(s).flatMap((i) => each[i]!)) as Middleware);
  // What the app mounts, for whoever lists its routes (test/fuzz), as a router's own middleware carries it.
  const mw: Middleware = (ctx, next) => chains.get(table.startOf(ctx.path ?? ''))!(ctx, next);
  return Object.assign(mw, { routers });
}

/**
 * Which routers a path may match, by the longest literal start it begins with (startOf; '' when
 * it begins with none) and the routers whose starts that one begins with, the last router always
 * among them (routersAt).
 */
export function routeStarts(routers: readonly Router[]) {
  const starts = routers.map(startsOf);
  const last = routers.length - 1;
  // Longest first: the first start a path begins with is its longest.
  const all = [...new Set(starts.flat())].sort((a, b) => b.length - a.length);
  return {
    starts: all,
    startOf(path: string): string {
      const p = path.toLowerCase();
      for (const s of all) if (p.startsWith(s)) return s;
      return '';
    },
    routersAt(start: string): number[] {
      return routers.flatMap((_, i) =>
        i === last || starts[i]!.some((s) => start.startsWith(s)) ? [i] : [],
      );
    },
  };
}
