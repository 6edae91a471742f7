/** A random unit vector per seed (mulberry32: distinct seeds give distinct vectors, in general position). */
export function unitVector(seed: number, dimensions = 16): Float32Array {
  const vector = new Float32Array(dimensions);
  let state = seed >>> 0;
  for (let index = 0; index < dimensions; index++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    vector[index] = ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  }
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}
