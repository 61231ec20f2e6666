/**
 * The thesis a Coil was generated from, kept in this tab only (sessionStorage, by manifest
 * hash): the service does not store a person's thesis with the Coil, but the Coil page shows
 * it, with its reading, after the home page opens it, on Back and Forward and on reload.
 */
import type { ThesisReading } from './types';

export interface RememberedThesis {
  thesis: string;
  reading: ThesisReading;
}

const key = (manifestHash: string) => `svc-thesis:${manifestHash}`;

export function rememberThesis(manifestHash: string, remembered: RememberedThesis): void {
  try {
    sessionStorage.setItem(key(manifestHash), JSON.stringify(remembered));
  } catch {
    // Storage full or refused: the page shows the Coil without the thesis.
  }
}

export function recallThesis(manifestHash: string): RememberedThesis | undefined {
  try {
    const text = sessionStorage.getItem(key(manifestHash));
    return text ? (JSON.parse(text) as RememberedThesis) : undefined;
  } catch {
    return undefined;
  }
}
