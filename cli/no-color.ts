/**
 * NO_COLOR (https://no-color.org): chalk, which Ink colours through, does not read it, but reads FORCE_COLOR when it
 * loads; imported before anything that loads chalk.
 */
if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== '') process.env.FORCE_COLOR = '0';
