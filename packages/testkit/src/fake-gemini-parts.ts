/**
 * What the real Gemini API refuses in a request's inline data (pictures sent with a message), so the fake answers
 * 400 INVALID_ARGUMENT where Google would. Gemini takes PNG, JPEG, WEBP, HEIC and HEIF pictures
 * (https://ai.google.dev/gemini-api/docs/image-understanding); another type, data that is not base64, or bytes that
 * are not the picture the type names fail the whole request.
 */
const PICTURE_SIGNATURES: Record<string, (bytes: Buffer) => boolean> = {
  "image/png": (bytes) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  "image/jpeg": (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
  "image/webp": (bytes) => bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP",
  "image/heic": (bytes) => bytes.subarray(4, 8).toString("latin1") === "ftyp",
  "image/heif": (bytes) => bytes.subarray(4, 8).toString("latin1") === "ftyp",
};
/** Other inline types Gemini documents (documents, audio, video): accepted without looking inside. */
const OTHER_TYPES = /^(application\/pdf|text\/plain|audio\/|video\/)/;

const refusal = (message: string) => ({ error: { code: 400, message, status: "INVALID_ARGUMENT" } });

/** The API's 400 for the first inline part it would refuse; undefined when every one is acceptable. */
export function inlineDataErrors(body: { contents?: Array<{ parts?: unknown[] }> }) {
  for (const content of body.contents ?? []) {
    for (const part of content.parts ?? []) {
      const inline = (part as { inlineData?: { mimeType?: unknown; data?: unknown } }).inlineData;
      if (!inline) continue;
      const { mimeType, data } = inline;
      if (typeof mimeType !== "string" || typeof data !== "string" || data === "") return refusal("Request contains an invalid argument.");
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return refusal("Invalid value at 'contents[0].parts[1].inline_data.data' (TYPE_BYTES), Base64 decoding failed");
      const check = PICTURE_SIGNATURES[mimeType];
      if (!check && !OTHER_TYPES.test(mimeType)) return refusal(`Unsupported MIME type: ${mimeType}`);
      if (check && !check(Buffer.from(data, "base64")))
        return refusal("Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting");
    }
  }
  return undefined;
}
