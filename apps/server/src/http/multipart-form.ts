import { PassThrough, type Readable } from "node:stream";
import Busboy, { type BusboyHeaders, type BusboyInstance } from "@fastify/busboy";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "./app-error.ts";

export interface MultipartLimits {
  /** Text fields; a form with more is refused. */
  fields: number;
  /** Bytes of one text field; a longer one is refused. */
  fieldBytes: number;
  /** Bytes of the file; past this the form fails with `tooLarge()`. */
  fileBytes: number;
}

export interface FormFile {
  fieldName: string;
  filename: string;
  mimeType: string;
  /** The file's bytes. It ends only once the whole form has arrived intact; otherwise it fails with the form's error. */
  stream: Readable;
}

export interface MultipartForm<T> {
  /** Each text field's values in the order sent (a name may repeat). */
  fields: Map<string, string[]>;
  /** What `onFile` made of the file part, if one was sent. */
  file: T | undefined;
}

export interface ReadMultipartOptions<T> {
  limits: MultipartLimits;
  /** The file part's field name; any name when omitted. Other file parts are skipped. */
  fileField?: string;
  tooLarge(): Error;
  /** Consumes the file (stores it somewhere). Rejecting ends the form with that error. */
  onFile(file: FormFile): Promise<T>;
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route reads a multipart form (an upload); every other route takes JSON only. */
    multipart?: boolean;
  }
}

/** What a multipart route answers a body of another type with. */
export const MULTIPART_ONLY_MESSAGE = "This request takes a file sent as multipart/form-data";

const aborted = () => new AppError("upload_aborted", 400, "The upload was interrupted before it finished");
const malformed = (detail: string) => new AppError("malformed_multipart", 400, `The form data is malformed: ${detail}`);

/**
 * Lets multipart requests reach the routes that read them (`config: { multipart: true }`) unread: each streams its
 * form with `readMultipartForm`. Any other route refuses them with 415 before its handler runs: a JSON route once
 * took a form as an empty body and made an empty conversation.
 */
export function registerMultipart(app: FastifyInstance, notForThisRoute: () => Error) {
  app.addContentTypeParser("multipart/form-data", (request, _payload, done) =>
    request.routeOptions.config.multipart ? done(null) : done(notForThisRoute(), undefined),
  );
}

export const isMultipartRequest = (request: FastifyRequest) => /^multipart\/form-data(?:[\s;]|$)/i.test(request.headers["content-type"] ?? "");

/**
 * Streams a multipart/form-data body: text fields are collected, the file goes to `onFile` as it arrives. Every
 * way a form can go wrong ends in an AppError: no boundary, too many or too long fields, a file over the limit,
 * a body cut short or without its closing boundary, a client that goes away. The file stream is failed rather
 * than ended in all of them, so whatever `onFile` wrote can be removed, and nothing waits for ever.
 */
export function readMultipartForm<T>(request: FastifyRequest, options: ReadMultipartOptions<T>): Promise<MultipartForm<T>> {
  const { limits } = options;
  const raw = request.raw;
  // A client that went away while the request waited for its route (a session check) sends nothing more.
  if (raw.destroyed && !raw.complete) return Promise.reject(aborted());
  let parser: BusboyInstance;
  try {
    parser = Busboy({
      headers: request.headers as BusboyHeaders,
      limits: { fields: limits.fields, fieldSize: limits.fieldBytes, files: 1, fileSize: limits.fileBytes, parts: limits.fields + 1 },
      // Only a part with a filename is a file: a text field sent as application/octet-stream is still a field.
      isPartAFile: (_name, _type, filename) => filename !== undefined,
    });
  } catch {
    return Promise.reject(malformed("the Content-Type header has no boundary"));
  }

  return new Promise((resolve, reject) => {
    const fields = new Map<string, string[]>();
    let consumer: Promise<T> | undefined;
    let body: PassThrough | undefined;
    let failure: Error | undefined;

    const fail = (error: Error) => {
      if (failure) return;
      failure = error;
      raw.unpipe(parser);
      raw.off("close", onClose);
      body?.destroy(error);
      // Answer once the consumer has settled, so whatever it wrote is gone by then.
      void (consumer ?? Promise.resolve()).catch(() => undefined).then(() => reject(error));
    };
    const onClose = () => {
      if (!raw.complete) fail(aborted());
    };

    parser.on("field", (name: string, value: string, nameTruncated: boolean, valueTruncated: boolean) => {
      if (nameTruncated || valueTruncated) return fail(new AppError("field_too_large", 413, `A form field is longer than ${limits.fieldBytes} bytes`));
      fields.set(name, [...(fields.get(name) ?? []), value]);
    });
    parser.on("file", (name: string, stream: Readable, filename: string, _encoding: string, mimeType: string) => {
      // The parser also reports its errors on the parser itself, handled below.
      stream.on("error", () => undefined);
      if (failure || consumer || (options.fileField !== undefined && name !== options.fileField)) {
        stream.resume();
        return;
      }
      body = new PassThrough();
      // The consumer may not be listening yet when the form fails (it awaits something first); it still sees the
      // error when it reads, and an unheard 'error' event must not bring the process down.
      body.on("error", () => undefined);
      stream.on("limit", () => fail(options.tooLarge()));
      // The end is held back until the whole form has been read (the "finish" handler below).
      stream.pipe(body, { end: false });
      consumer = options.onFile({ fieldName: name, filename, mimeType, stream: body });
      consumer.catch((error: unknown) => fail(error instanceof Error ? error : new Error(String(error))));
    });
    parser.on("fieldsLimit", () => fail(new AppError("too_many_fields", 413, `The form has more than ${limits.fields} fields`)));
    parser.on("filesLimit", () => fail(new AppError("too_many_files", 413, "Send one file per request")));
    parser.on("partsLimit", () => fail(new AppError("too_many_fields", 413, `The form has more than ${limits.fields + 1} parts`)));
    parser.on("error", (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      fail(/unexpected end/i.test(message) ? malformed("it ended before its closing boundary (the upload was cut short)") : malformed(message));
    });
    parser.on("finish", () => {
      if (failure) return;
      body?.end();
      void (consumer ?? Promise.resolve(undefined)).then(
        (file) => {
          if (!failure) resolve({ fields, file });
        },
        () => undefined, // the consumer's failure is answered by fail()
      );
    });
    raw.on("close", onClose);
    raw.pipe(parser);
  });
}
