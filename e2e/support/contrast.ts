import type { Locator } from "@playwright/test";

/**
 * The WCAG contrast ratio between an element's border and the background around it. Colours are painted on a
 * canvas, ancestors' backgrounds first, so any CSS colour (oklch, alpha) resolves to what the screen shows.
 */
export function borderContrast(element: Locator): Promise<number> {
  return element.evaluate((target) => {
    const context = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    const paint = (colors: string[]) => {
      context.clearRect(0, 0, 1, 1);
      for (const color of ["#fff", ...colors]) {
        context.fillStyle = color;
        context.fillRect(0, 0, 1, 1);
      }
      // One pixel of RGBA: four channels, of which the first three are the colour.
      const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
      return [r!, g!, b!] as const;
    };
    const linear = (value: number) => {
      const channel = value / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    };
    const luminance = ([r, g, b]: readonly [number, number, number]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    const behind: string[] = [];
    for (let node = target.parentElement; node; node = node.parentElement) behind.unshift(getComputedStyle(node).backgroundColor);
    const own = getComputedStyle(target);
    const [border, around] = [luminance(paint([...behind, own.backgroundColor, own.borderTopColor])), luminance(paint(behind))];
    return (Math.max(border, around) + 0.05) / (Math.min(border, around) + 0.05);
  });
}

/** A colour property of an element as the screen shows it, in sRGB: [red, green, blue] from 0 to 255. */
export function paintedColor(element: Locator, property: "color" | "backgroundColor" | "borderTopColor"): Promise<[number, number, number]> {
  return element.evaluate((target, name) => {
    const context = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
    context.fillStyle = getComputedStyle(target)[name];
    context.fillRect(0, 0, 1, 1);
    // One pixel of RGBA: four channels, of which the first three are the colour.
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return [r!, g!, b!];
  }, property);
}
