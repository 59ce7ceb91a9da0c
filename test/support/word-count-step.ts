// A message check's step that lives outside src/, for the seam's test: the words of a message's text body, counted on a
// content worker (the worker loads this module by the step's URL, as it loads the product's steps).
import { simpleParser } from 'mailparser';

export async function countWords(raw: Buffer, longerThan: number): Promise<number> {
  const { text } = await simpleParser(raw);
  return (text ?? '').split(/\s+/).filter((word) => word.length > longerThan).length;
}
