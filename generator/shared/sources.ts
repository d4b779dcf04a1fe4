// Names of spec sources that are not files.

/** The spec built from `--tool` flags on the command line. */
export const CLI_SOURCE = "<command line>";
