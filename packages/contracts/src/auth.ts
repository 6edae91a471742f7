import { z } from "zod";

export const loginRequestSchema = z.object({
  username: z.string().max(200),
  password: z.string().max(1000),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const userSchema = z.object({
  id: z.number().int(),
  username: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const sessionUserResponseSchema = z.object({ user: userSchema });
export type SessionUserResponse = z.infer<typeof sessionUserResponseSchema>;

export const okResponseSchema = z.object({ ok: z.literal(true) });

export const LOGIN_FAILED_MESSAGE = "Invalid username or password";
export const LOGIN_RATE_LIMITED_MESSAGE = "Too many login attempts. Please wait a minute and try again.";
