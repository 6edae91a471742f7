/** Services throw this; the one error handler turns it into `{ error, code }` with the status. */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string, code = "bad_request") => new AppError(code, 400, message);
export const notFound = (message = "Not found", code = "not_found") => new AppError(code, 404, message);
export const conflict = (message: string, code = "conflict") => new AppError(code, 409, message);
export const forbidden = (message: string, code = "forbidden") => new AppError(code, 403, message);
export const unauthorized = (message = "Not logged in", code = "unauthorized") => new AppError(code, 401, message);
