/**
 * The {@code atomicshards} command-line tool: {@link org.atomicshards.cli.Main} (the entry point, also for tests
 * through {@code Main.commandLine(environment).execute(args)}), the top command and the documented
 * {@link org.atomicshards.cli.ExitCodes}.
 */
package org.atomicshards.cli;
