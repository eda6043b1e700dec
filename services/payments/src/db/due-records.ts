import { isDuplicateKeyError, type DueWorkFields } from '@orquestra/platform';
import type { Collection, Document } from 'mongodb';
import type { FilterQuery, Model, UpdateQuery } from 'mongoose';

/** A record of due work tried until done: its id says what it is about, `tries` counts the passes. */
export interface DueRecord extends DueWorkFields {
  _id: string;
  tries: number;
}

/**
 * The records of one kind of due work (orphan charges, refund follow-ups): inserted once by
 * their id, claimed by a DueWorker on `collection`, then removed when done or moved on. A pass
 * writes its outcome only while its claim stands (the `due_at` it claimed): a pass that took
 * over after the lease writes its own.
 */
export class DueRecords<T extends DueRecord> {
  constructor(private readonly model: Model<T>) {}

  /** The driver collection, for the DueWorker. */
  get collection(): Collection<Document> {
    return this.model.collection;
  }

  /** Inserts `record`; one already recorded under its id is the same work, kept as it is. */
  async insertOnce(record: T): Promise<void> {
    try {
      await this.model.create(record);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  async remove(id: string): Promise<void> {
    await this.model.deleteOne({ _id: id } as FilterQuery<T>);
  }

  /** Another pass at `dueAt`, one try more. */
  async retryAt(claimed: T, dueAt: Date): Promise<void> {
    await this.model.updateOne(this.stillClaimed(claimed), { $set: { due_at: dueAt, tries: claimed.tries + 1 } } as UpdateQuery<T>);
  }

  /** No more passes: the record stays, for a person to look at. */
  async park(claimed: T): Promise<void> {
    await this.model.updateOne(this.stillClaimed(claimed), { $set: { due_at: null } } as UpdateQuery<T>);
  }

  private stillClaimed(claimed: T): FilterQuery<T> {
    return { _id: claimed._id, due_at: claimed.due_at } as FilterQuery<T>;
  }
}
