import { onTestFinished, vi } from "vitest";

/** One upload the page sent: where, and the form's fields (a file field as its name). */
export interface RecordedUpload {
  method: string;
  url: string;
  fields: Record<string, string>;
}

type UploadAnswer = { status: number; statusText?: string; body: unknown } | "network-failure";

/**
 * Uploads as the browser's XMLHttpRequest sees them (the page sends files through XHR for its progress): each is
 * recorded, reports full progress, and gets `answer`'s reply a moment later.
 */
export function fakeUploads(answer: (upload: RecordedUpload) => UploadAnswer) {
  const uploads: RecordedUpload[] = [];
  class FakeXmlHttpRequest {
    upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    withCredentials = false;
    status = 0;
    statusText = "";
    responseText = "";
    private method = "";
    private url = "";

    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }

    send(form: FormData) {
      const fields: Record<string, string> = {};
      for (const [key, value] of form.entries()) fields[key] = typeof value === "string" ? value : value.name;
      const upload = { method: this.method, url: this.url, fields };
      uploads.push(upload);
      setTimeout(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 1 });
        const reply = answer(upload);
        if (reply === "network-failure") return this.onerror?.();
        this.status = reply.status;
        this.statusText = reply.statusText ?? "";
        this.responseText = JSON.stringify(reply.body);
        this.onload?.();
      }, 0);
    }
  }
  vi.stubGlobal("XMLHttpRequest", FakeXmlHttpRequest);
  onTestFinished(() => {
    vi.unstubAllGlobals();
  });
  return uploads;
}
