import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  briefingSchema,
  scheduleListSchema,
  scheduleRunListSchema,
  scheduleRunSchema,
  scheduleSchema,
  type Briefing,
  type BriefingSettings,
  type CreateScheduleRequest,
  type Schedule,
  type ScheduleRun,
  weeklyReviewSchema,
  type WeeklyReview,
  type WeeklyReviewSettings,
} from "@sage/contracts/schedules";
import { apiRequest, getJson } from "@/lib/api-client";
import { pollEvery } from "@/lib/poll-every";

export const schedulesQueryKey = ["schedules"] as const;

export function useSchedules() {
  return useQuery({ queryKey: schedulesQueryKey, queryFn: async (): Promise<Schedule[]> => (await getJson("/api/schedules", scheduleListSchema)) ?? [] });
}

/** A schedule's runs, newest first; polled while one is still going. */
export function useScheduleRuns(id: number, enabled: boolean) {
  return useQuery({
    queryKey: [...schedulesQueryKey, id, "runs"],
    enabled,
    queryFn: async (): Promise<ScheduleRun[]> => (await getJson(`/api/schedules/${id}/runs`, scheduleRunListSchema)) ?? [],
    refetchInterval: (query) => (query.state.data?.some((run) => run.status === "running") ? pollEvery(2_000) : false),
  });
}

/** Create, pause/resume, Run now and delete; each refreshes the list and the histories. */
export function useScheduleActions() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: schedulesQueryKey });
  return {
    create: useMutation({
      mutationFn: (input: CreateScheduleRequest) => apiRequest("/api/schedules", { method: "POST", body: input, schema: scheduleSchema }),
      onSuccess: refresh,
    }),
    setPaused: useMutation({
      mutationFn: ({ id, paused }: { id: number; paused: boolean }) =>
        apiRequest(`/api/schedules/${id}`, { method: "PATCH", body: { paused }, schema: scheduleSchema }),
      onSuccess: refresh,
    }),
    runNow: useMutation({
      mutationFn: (id: number) => apiRequest(`/api/schedules/${id}/run`, { method: "POST", schema: scheduleRunSchema }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: number) => apiRequest(`/api/schedules/${id}`, { method: "DELETE" }),
      onSuccess: refresh,
    }),
  };
}

export const briefingQueryKey = [...schedulesQueryKey, "briefing"] as const;

/** The morning briefing's settings (off until first saved). */
export function useBriefing() {
  return useQuery({ queryKey: briefingQueryKey, queryFn: async (): Promise<Briefing | null> => getJson("/api/schedules/briefing", briefingSchema) });
}

/** Saves the briefing's settings; the schedules list shows it too. */
export function useSaveBriefing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: BriefingSettings) => apiRequest("/api/schedules/briefing", { method: "PUT", body: settings, schema: briefingSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: schedulesQueryKey }),
  });
}

export const weeklyReviewQueryKey = [...schedulesQueryKey, "weekly-review"] as const;

/** The weekly review's settings (off until first saved; Friday 16:00 by default). */
export function useWeeklyReview() {
  return useQuery({
    queryKey: weeklyReviewQueryKey,
    queryFn: async (): Promise<WeeklyReview | null> => getJson("/api/schedules/weekly-review", weeklyReviewSchema),
  });
}

/** Saves the weekly review's settings; the schedules list shows it too. */
export function useSaveWeeklyReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: WeeklyReviewSettings) => apiRequest("/api/schedules/weekly-review", { method: "PUT", body: settings, schema: weeklyReviewSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: schedulesQueryKey }),
  });
}
