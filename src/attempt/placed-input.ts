/** An input file of the run, placed in its sandbox's /workspace/in, as the agent is told of it. */
export interface PlacedInput {
  name: string;
  size: number;
  contentType: string;
}
