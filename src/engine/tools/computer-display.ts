import type { ScreenPoint } from '../../agent-tools/computer-actions.js';
import type { ViewportPoint } from '../../sandbox/protocol.js';
import { BROWSER_VIEWPORT, type ComputerDisplaySize } from '../../vocabulary/action-spaces.js';

/**
 * The screen a `computer` run's model sees (`computer.display`): the browser's viewport, scaled by one factor to the
 * display's size. The one place a point of the model's screenshots becomes a point of the page, and back.
 */
export class ComputerDisplay {
  readonly width: number;
  readonly height: number;
  readonly viewport: { width: number; height: number } = BROWSER_VIEWPORT;

  constructor(size: ComputerDisplaySize) {
    const [width, height] = size.split('x').map(Number) as [number, number];
    this.width = width;
    this.height = height;
  }

  /** Whether the screen's pixels are the page's CSS pixels. */
  get unscaled(): boolean {
    return this.width === this.viewport.width && this.height === this.viewport.height;
  }

  /** Whether a point is on the screen. */
  holds(point: ScreenPoint): boolean {
    return point.x >= 0 && point.y >= 0 && point.x < this.width && point.y < this.height;
  }

  /**
   * The CSS pixel under the centre of a screen pixel: a pixel of a scaled screenshot covers `viewport / display` CSS
   * pixels each way, and its centre lies in exactly one of them. The identity when the screen is not scaled.
   */
  toPage(point: ScreenPoint): ViewportPoint {
    return {
      x: Math.min(this.viewport.width - 1, Math.floor(((point.x + 0.5) * this.viewport.width) / this.width)),
      y: Math.min(this.viewport.height - 1, Math.floor(((point.y + 0.5) * this.viewport.height) / this.height)),
    };
  }

  /** A distance on the screen (a scroll) in CSS pixels. */
  toPageDistance(pixels: number): number {
    return Math.round((pixels * this.viewport.width) / this.width);
  }
}
