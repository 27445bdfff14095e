import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { HttpError } from './http-errors';

/**
 * scrypt on a few worker threads of its own (issue 14). `crypto.scrypt` runs on libuv's thread
 * pool, the 4 threads that also read and write files: a burst of registrations or logins queued
 * behind them kept uploads waiting for seconds. Here each worker runs `scryptSync` on its own
 * thread, one hash at a time; the jobs wait in a bounded queue in the main thread, and the libuv
 * pool stays free for file I/O.
 *
 * Threads: `PASSWORD_HASH_THREADS`, default one less than the CPUs (at least 1, at most 4), so a
 * burst of hashing leaves a core to the event loop. Queue: at most `MAX_QUEUED` waiting hashes;
 * beyond that the call answers 503 (nothing is written).
 */

export const MAX_QUEUED = 1000;
export const BUSY_MESSAGE = 'Serverul este foarte aglomerat acum. Te rugăm să încerci din nou peste câteva secunde.';

// Plain CommonJS run with `eval`: no loader, no file to find (tsx, vitest, a build all run it alike).
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { scryptSync } = require('node:crypto');
parentPort.on('message', ({ password, salt, keyLength, options }) => {
  try {
    const key = scryptSync(password, Buffer.from(salt), keyLength, options);
    parentPort.postMessage({ key });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
});
`;

export interface ScryptOptions {
  N: number;
  r: number;
  p: number;
  maxmem: number;
}

interface Job {
  password: string;
  salt: Buffer;
  keyLength: number;
  options: ScryptOptions;
  resolve: (key: Buffer) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

export function hashThreads(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.PASSWORD_HASH_THREADS);
  if (Number.isInteger(configured) && configured > 0) return Math.min(configured, 64);
  return Math.max(1, Math.min(4, os.availableParallelism() - 1));
}

export class ScryptPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];

  constructor(
    private readonly size: number,
    private readonly maxQueued = MAX_QUEUED,
  ) {}

  /** The derived key; rejects with a 503 when `maxQueued` hashes already wait. */
  scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
    if (this.queue.length >= this.maxQueued) return Promise.reject(new HttpError(503, BUSY_MESSAGE));
    return new Promise((resolve, reject) => {
      this.queue.push({ password, salt, keyLength, options, resolve, reject });
      this.dispatch();
    });
  }

  /** Hashes waiting for a thread (not counting those running). */
  get waiting(): number {
    return this.queue.length;
  }

  private dispatch(): void {
    while (this.queue.length) {
      let slot = this.slots.find((s) => s.job === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      // A running hash keeps the process alive; an idle worker does not.
      slot.worker.ref();
      slot.worker.postMessage({ password: job.password, salt: job.salt, keyLength: job.keyLength, options: job.options });
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_SOURCE, { eval: true, name: 'scrypt' });
    worker.unref();
    const slot: Slot = { worker, job: null };
    worker.on('message', (message: { key?: Uint8Array; error?: string }) => {
      const job = slot.job;
      slot.job = null;
      worker.unref();
      if (job) {
        if (message.key) job.resolve(Buffer.from(message.key.buffer, message.key.byteOffset, message.key.byteLength));
        else job.reject(new Error(message.error ?? 'scrypt failed'));
      }
      this.dispatch();
    });
    const gone = (error: Error) => {
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      slot.job?.reject(error);
      slot.job = null;
      this.dispatch();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`scrypt worker exited (${code})`)));
    this.slots.push(slot);
    return slot;
  }
}

let shared: ScryptPool | null = null;

/** The process's pool, made at the first hash. */
export function scryptPool(): ScryptPool {
  shared ??= new ScryptPool(hashThreads());
  return shared;
}
