declare module 'cluster-key-slot' {
  /** CRC16 hash slot of a key, honouring {hash tags}. */
  export default function calculateSlot(key: string): number;
}
