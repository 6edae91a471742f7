import type { FastifyInstance } from "fastify";
import { EXTERNAL_TOOL_TEXTS, approvalDecisionSchema, approvalParamsSchema, toolSettingRequestSchema } from "@sage/contracts/external-tools";
import { notFound } from "../../http/app-error.ts";
import { requireUser } from "../../http/session-guard.ts";
import { parseInput } from "../../http/validate.ts";
import type { ApprovalsPort } from "./approvals.ts";
import type { ExternalToolsService } from "./external-tools.service.ts";

/** Reading servers' state and keeping a user's choices; no route defines, starts or changes a server. */
export function registerExternalToolsRoutes(app: FastifyInstance, deps: { service: ExternalToolsService; approvals: ApprovalsPort }) {
  const { service, approvals } = deps;

  app.get("/api/tools", async (request) => service.list(requireUser(request).id));

  app.patch("/api/tools/settings", async (request) => {
    const user = requireUser(request);
    return service.saveChoice(user.id, parseInput(toolSettingRequestSchema, request.body, "body"));
  });

  app.get("/api/approvals", async (request) => ({ approvals: await approvals.pending(requireUser(request).id) }));

  app.post("/api/approvals/:approvalId", async (request) => {
    const user = requireUser(request);
    const { approvalId } = parseInput(approvalParamsSchema, request.params, "approvalId");
    const { approved, confirm } = parseInput(approvalDecisionSchema, request.body, "body");
    // Another user's call is as unknown as a finished one; a content-derived card needs `confirm` to be approved (409).
    if (!(await approvals.answer(user.id, approvalId, approved, confirm))) throw notFound(EXTERNAL_TOOL_TEXTS.approvalNotFound, "approval_not_found");
    return { approvalId, approved };
  });
}
