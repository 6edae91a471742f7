// The part of mbox-reader we use (the package ships no types).
declare module "mbox-reader" {
  export interface MboxMessage {
    content: Buffer;
    time: Date | false;
    returnPath?: string;
  }
  export function mboxReader(input: NodeJS.ReadableStream, options?: { gz?: boolean }): AsyncGenerator<MboxMessage>;
}
