import { setBounded } from '../bounded-map';

/**
 * The queue scripts' view of one fan: place, drawing, admittedThrough, soldOut, inPresalePool,
 * inDraw, turnStart, epoch ('' when Redis lost the queue).
 */
export type QueueView = [string, string, string, string, string, string, string, string];

export interface WaitingPlacesOptions {
  /**
   * The staleness bound of an answer given from here: a room's state read from Redis longer
   * ago than this (by the clock the service is given) is not used. 0 turns local answers off.
   */
  pollMaxAgeMs: number;
  /**
   * Places remembered per room; past this the oldest is dropped (its fan's next poll reads
   * Redis). 0 turns local answers off too (not a room without a bound).
   */
  placesPerRoomMax: number;
}

/** A waiting fan as this instance knows them: their place and the room's state it last read. */
export interface KnownWaiting {
  position: number;
  admittedThrough: number;
  soldOut: boolean;
}

/** What this instance last read of one session's waiting room, and the places it has seen. */
interface Room {
  epoch: number;
  admitted: number;
  soldOut: boolean;
  readAtMs: number;
  places: Map<string, number>;
}

/**
 * A room whose state nobody read for this long (no poll, no join, no tick here: its sale is
 * over, or its fans poll other instances) is dropped, with its places, when another room is
 * noted: an instance that lives through many on-sales keeps only the rooms in use.
 */
const ROOM_IDLE_MS = 10 * 60_000;

/**
 * A waiting fan's poll answered from what this instance already read, without Redis. Most polls
 * in an on-sale come from fans far back in the line, and their answer depends on two things only:
 * their place, which never changes while they wait (within one epoch of the queue: a place is
 * given up only after its turn, and a rebuild from MySQL starts a new epoch), and the room's
 * admittedThrough and soldOut, which every reader sees alike. So each join and each poll this
 * instance answers from Redis notes the fan's place and the room's state; a later poll by a fan
 * whose place is known and not yet admitted is answered from them while the state is younger
 * than pollMaxAgeMs. Anything else (an admitted fan, whose answer carries a signed token and a
 * turn; a fan without a known place; a stale or missing room state) reads Redis as before.
 *
 * Staleness bound: a fan learns of their admission, or of a sell-out or of stock coming back, at
 * most pollMaxAgeMs later than from Redis (on the instance running the admission tick, not even
 * that: the tick notes its own result). A poll sent after an answer from this instance is never
 * answered with a lower admittedThrough by it: within an epoch the noted state only moves
 * forward, and Redis's own reads do too.
 */
export class WaitingPlaces {
  private readonly rooms = new Map<string, Room>();

  constructor(private readonly o: WaitingPlacesOptions) {}

  /** Notes a view the scripts returned at nowMs (a join's or a poll's). */
  noteView(sessionId: string, userId: string, view: QueueView, nowMs: number): void {
    if (!this.on) return;
    const [place, , admitted, soldOut, , , , epoch] = view;
    const room = this.roomAt(sessionId, epoch, nowMs);
    if (!room) return;
    this.noteState(room, Number(admitted), soldOut === '1', nowMs);
    if (place === '') {
      room.places.delete(userId);
      return;
    }
    setBounded(room.places, userId, Number(place), this.o.placesPerRoomMax);
  }

  /** Notes the admission tick's result (the instance that runs it knows the state at once). */
  noteAdmitted(sessionId: string, epoch: string, admitted: number, soldOut: boolean, nowMs: number): void {
    if (!this.on) return;
    const room = this.roomAt(sessionId, epoch, nowMs);
    if (room) this.noteState(room, admitted, soldOut, nowMs);
  }

  /**
   * What a waiting fan's poll is answered with at nowMs, when their place is known, not yet
   * admitted, and the room's state is fresh; undefined sends the poll to Redis.
   */
  waiting(sessionId: string, userId: string, nowMs: number): KnownWaiting | undefined {
    const room = this.rooms.get(sessionId);
    if (!room) return undefined;
    const age = nowMs - room.readAtMs;
    if (age < 0 || age >= this.o.pollMaxAgeMs) return undefined;
    const place = room.places.get(userId);
    if (place === undefined || place <= room.admitted) return undefined;
    return { position: place, admittedThrough: room.admitted, soldOut: room.soldOut };
  }

  /** Forgets a room (rebuilt from MySQL: its places are read again). */
  forget(sessionId: string): void {
    this.rooms.delete(sessionId);
  }

  /** Either bound at 0 turns local answers off: nothing is noted, so every poll reads Redis. */
  private get on(): boolean {
    return this.o.pollMaxAgeMs > 0 && this.o.placesPerRoomMax > 0;
  }

  /** Rooms noted here now (tests). */
  get roomCount(): number {
    return this.rooms.size;
  }

  /** The room for a view of `epoch`: a new one for a newer epoch; undefined for an older or lost one. */
  private roomAt(sessionId: string, epochStr: string, nowMs: number): Room | undefined {
    if (epochStr === '') return undefined;
    const epoch = Number(epochStr);
    const room = this.rooms.get(sessionId);
    if (room && room.epoch === epoch) return room;
    if (room && room.epoch > epoch) return undefined;
    if (!room) this.dropIdle(nowMs);
    const fresh: Room = {
      epoch,
      admitted: 0,
      soldOut: false,
      readAtMs: -Infinity,
      places: new Map(),
    };
    this.rooms.set(sessionId, fresh);
    return fresh;
  }

  /**
   * Within an epoch admittedThrough only grows: a read that shows less was overtaken by one
   * noted already (two reads in flight at once), and it changes nothing.
   */
  private noteState(room: Room, admitted: number, soldOut: boolean, nowMs: number): void {
    if (admitted < room.admitted) return;
    room.admitted = admitted;
    room.soldOut = soldOut;
    room.readAtMs = Math.max(room.readAtMs, nowMs);
  }

  private dropIdle(nowMs: number): void {
    for (const [id, r] of this.rooms) if (nowMs - r.readAtMs > ROOM_IDLE_MS) this.rooms.delete(id);
  }
}
