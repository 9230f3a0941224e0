/** The V8 flags the server runs with (node-args.js). */
declare const nodeArgs: string[];
export = nodeArgs;
