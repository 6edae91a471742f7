import type { LucideIcon } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";
import { cn } from "@/lib/cn";

interface UtilityIconButtonProps extends Omit<ComponentProps<"button">, "children"> {
  /** Used for the tooltip and the accessible name. */
  label: string;
  /** News the icon shows as a badge, said in words: joins the label in the name and the tooltip. */
  status?: string;
  icon: LucideIcon;
  /** Navigates there when set (rendered as a link). */
  href?: string;
  active?: boolean;
  badge?: ReactNode;
}

/**
 * An icon button with a tooltip. Extra props (and a ref) go to the button, so it can sit inside
 * a Radix `asChild` trigger such as SheetTrigger.
 */
export function UtilityIconButton({ label: baseLabel, status, icon: Icon, href, active = false, badge, className, ...props }: UtilityIconButtonProps) {
  const label = status ? `${baseLabel} (${status})` : baseLabel;
  const classes = cn("relative", active ? "bg-accent text-accent-foreground ring-1 ring-ring/40" : "text-muted-foreground", className);
  const content = (
    <>
      <Icon aria-hidden className="size-5" />
      {badge}
    </>
  );
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        {href ? (
          <Button asChild variant="ghost" size="icon" className={classes}>
            <Link href={href} aria-label={label} aria-current={active ? "page" : undefined} data-active={active || undefined}>
              {content}
            </Link>
          </Button>
        ) : (
          <Button type="button" variant="ghost" size="icon" aria-label={label} className={classes} {...props}>
            {content}
          </Button>
        )}
      </TooltipTrigger>
      <TooltipContent side="bottom">{label}</TooltipContent>
    </Tooltip>
  );
}
