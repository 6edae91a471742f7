import type { FastifyInstance } from "fastify";
import { okResponseSchema } from "@sage/contracts/auth";
import {
  ELICITATION_TEXTS,
  elicitationAnswerSchema,
  elicitationAnsweredSchema,
  elicitationParamsSchema,
  pendingElicitationsResponseSchema,
} from "@sage/contracts/elicitation";
import {
  EXTERNAL_TOOL_TEXTS,
  addRemoteServerRequestSchema,
  approvalAnsweredSchema,
  approvalDecisionSchema,
  approvalParamsSchema,
  externalToolsResponseSchema,
  getPromptRequestSchema,
  getPromptResponseSchema,
  pendingApprovalsResponseSchema,
  readResourceRequestSchema,
  readResourceResponseSchema,
  remoteServerSchema,
  remoteServersResponseSchema,
  serverParamsSchema,
  serverSettingRequestSchema,
  serverSettingResponseSchema,
  toolPromptsResponseSchema,
  toolResourcesResponseSchema,
  toolSettingRequestSchema,
} from "@sage/contracts/external-tools";
import { AppError, notFound } from "../../http/app-error.ts";
import { invalidField } from "../../http/invalid-input.ts";
import type { ZodTypeProvider } from "../../http/route-contracts.ts";
import { requireUser } from "../../http/session-guard.ts";
import type { ApprovalsPort } from "./approvals.ts";
import type { Elicitations } from "./elicitations.ts";
import type { ExternalToolsService } from "./external-tools.service.ts";
import type { ServerOffersService } from "./server-offers.service.ts";
import type { ToolServersService } from "./tool-servers.service.ts";

/** A malformed id is named as the routes always named it ("Invalid approvalId: ..."). */
const pathNamed = (name: string) => ({ invalidInput: { path: invalidField(name) } });

/**
 * Servers' state and each user's choices, the remote servers a user adds by URL, what servers offer (resources,
 * prompts), and the answers tool calls wait for (approvals, a server's questions). No route defines or starts a
 * program.
 */
export function registerExternalToolsRoutes(
  app: FastifyInstance,
  deps: { service: ExternalToolsService; servers: ToolServersService; offers: ServerOffersService; approvals: ApprovalsPort; elicitations: Elicitations },
) {
  const { service, servers, offers, approvals, elicitations } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    "/api/tools",
    {
      schema: {
        summary: "Every tool server of the user with its state and tools (annotations, the user's choices)",
        response: { 200: externalToolsResponseSchema },
      },
    },
    async (request) => service.list(requireUser(request).id),
  );

  api.patch(
    "/api/tools/settings",
    {
      schema: {
        summary: "Keep the user's choice for one tool (Enabled, Ask before running)",
        body: toolSettingRequestSchema,
        response: { 200: externalToolsResponseSchema },
      },
    },
    async (request) => service.saveChoice(requireUser(request).id, request.body),
  );

  api.post(
    "/api/tools/servers",
    {
      schema: {
        summary: "Add a remote tool server by URL: connected, sign-in-needed (with where to sign in) or error",
        body: addRemoteServerRequestSchema,
        response: { 201: remoteServerSchema },
      },
    },
    async (request, reply) => reply.code(201).send(await servers.add(requireUser(request).id, request.body)),
  );

  api.get(
    "/api/tools/servers",
    { schema: { summary: "The remote tool servers of the user (never a token)", response: { 200: remoteServersResponseSchema } } },
    async (request) => servers.list(requireUser(request).id),
  );

  api.patch(
    "/api/tools/servers/:serverId",
    {
      config: pathNamed("serverId"),
      schema: {
        summary: "Whether the user trusts a server's hints",
        params: serverParamsSchema,
        body: serverSettingRequestSchema,
        response: { 200: serverSettingResponseSchema },
      },
    },
    async (request) => servers.setTrust(requireUser(request).id, request.params.serverId, request.body.trusted),
  );

  api.delete(
    "/api/tools/servers/:serverId",
    {
      config: pathNamed("serverId"),
      schema: { summary: "Remove a remote tool server the user added, revoking its sign-in", params: serverParamsSchema, response: { 200: okResponseSchema } },
    },
    async (request) => {
      await servers.remove(requireUser(request).id, request.params.serverId);
      return { ok: true as const };
    },
  );

  api.get(
    "/api/tools/resources",
    { schema: { summary: "The resources and resource templates the user's servers offer", response: { 200: toolResourcesResponseSchema } } },
    async (request) => offers.resources(requireUser(request).id),
  );

  api.post(
    "/api/tools/resources/read",
    { schema: { summary: "Read one resource of a server", body: readResourceRequestSchema, response: { 200: readResourceResponseSchema } } },
    async (request) => offers.readResource(requireUser(request).id, request.body),
  );

  api.get(
    "/api/tools/prompts",
    { schema: { summary: "The prompts the user's servers offer, with their arguments", response: { 200: toolPromptsResponseSchema } } },
    async (request) => offers.prompts(requireUser(request).id),
  );

  api.post(
    "/api/tools/prompts/get",
    {
      schema: {
        summary: "A server's prompt filled with its arguments, as the composer's text",
        body: getPromptRequestSchema,
        response: { 200: getPromptResponseSchema },
      },
    },
    async (request) => offers.getPrompt(requireUser(request).id, request.body),
  );

  api.get(
    "/api/approvals",
    { schema: { summary: "The user's tool calls waiting for Approve / Decline", response: { 200: pendingApprovalsResponseSchema } } },
    async (request) => ({ approvals: await approvals.pending(requireUser(request).id) }),
  );

  api.post(
    "/api/approvals/:approvalId",
    {
      config: pathNamed("approvalId"),
      schema: {
        summary: "Approve or decline a waiting tool call",
        params: approvalParamsSchema,
        body: approvalDecisionSchema,
        response: { 200: approvalAnsweredSchema },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { approvalId } = request.params;
      const { approved, confirm } = request.body;
      // Another user's call is as unknown as a finished one; a content-derived card needs `confirm` to be approved (409).
      if (!(await approvals.answer(user.id, approvalId, approved, confirm))) throw notFound(EXTERNAL_TOOL_TEXTS.approvalNotFound, "approval_not_found");
      return { approvalId, approved };
    },
  );

  api.get(
    "/api/elicitations",
    { schema: { summary: "The questions tool servers are waiting for the user to answer", response: { 200: pendingElicitationsResponseSchema } } },
    async (request) => ({ elicitations: elicitations.pending(requireUser(request).id) }),
  );

  api.post(
    "/api/elicitations/:elicitationId",
    {
      config: pathNamed("elicitationId"),
      schema: {
        summary: "Answer a tool server's question: accept (with the form's content), decline or cancel",
        params: elicitationParamsSchema,
        body: elicitationAnswerSchema,
        response: { 200: elicitationAnsweredSchema },
      },
    },
    async (request) => {
      const { elicitationId } = request.params;
      const outcome = elicitations.answer(requireUser(request).id, elicitationId, request.body);
      if (outcome.status === "not-found") throw notFound(ELICITATION_TEXTS.notFound, "elicitation_not_found");
      if (outcome.status === "invalid") throw new AppError("validation_error", 400, ELICITATION_TEXTS.invalidAnswer(outcome.problems));
      return { elicitationId, action: request.body.action };
    },
  );
}
