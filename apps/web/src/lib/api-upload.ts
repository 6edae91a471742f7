import { ApiError, notifyUnauthorized, parseReplyText, type ApiReply } from "./api-client";

/**
 * POSTs a form through XHR, which (unlike fetch) reports upload progress as a fraction from 0 to 1.
 * Like the other calls: credentials included, 401 reported, non-2xx thrown as ApiError; a network
 * failure rejects with a TypeError, as fetch does.
 */
export function apiUpload(path: string, form: FormData, onProgress: (fraction: number) => void): Promise<ApiReply> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", path);
    request.withCredentials = true;
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      const { status, statusText, responseText: bodyText } = request;
      if (status === 401) notifyUnauthorized();
      if (status < 200 || status >= 300) return reject(new ApiError(status, statusText, bodyText));
      resolve({ status, statusText, bodyText, data: parseReplyText(bodyText) });
    };
    request.onerror = () => reject(new TypeError("Upload failed"));
    request.send(form);
  });
}
