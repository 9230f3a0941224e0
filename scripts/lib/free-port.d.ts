/** Whether 127.0.0.1:port can be listened on now. */
export function portFree(port: number): Promise<boolean>;
/** The kernel's ephemeral range [low, high] (Linux), or undefined where it cannot be read. */
export function ephemeralRange(file?: string): [number, number] | undefined;
/**
 * A port free now, for a process that will listen on it soon: drawn outside the kernel's
 * ephemeral range (`range`, read from the kernel when not given), so no outgoing connection or
 * listen(0) takes it meanwhile; the system's choice where the range is unknown.
 */
export function freePort(range?: [number, number]): Promise<number>;
