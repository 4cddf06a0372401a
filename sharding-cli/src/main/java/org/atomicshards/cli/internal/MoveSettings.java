package org.atomicshards.cli.internal;

import java.time.Duration;

import org.atomicshards.cli.ExitCodes;
import org.atomicshards.hibernate.admin.MoveOptions;
import org.atomicshards.hibernate.admin.MoveProgress;
import picocli.CommandLine.Option;

/** The options of a move ({@link MoveOptions}); the defaults are the runtime's. */
public final class MoveSettings {

    private static final MoveOptions DEFAULTS = MoveOptions.defaults();

    @Option(names = "--batch", paramLabel = "N",
            description = "Virtual shards switched together; the write pause of a batch grows with the units on them. "
                    + "Default: 4.")
    private Integer virtualShardsPerBatch;

    @Option(names = "--chunk", paramLabel = "N",
            description = "Units read and written per statement round, 1 to 1000. Default: 200.")
    private Integer unitsPerChunk;

    @Option(names = "--freeze-timeout-ms", paramLabel = "MS",
            description = "How long the freeze of a batch waits for the units of work running on it before it gives up "
                    + "and copies on. Default: 2000.")
    private Long freezeTimeoutMillis;

    @Option(names = "--freeze-attempts", paramLabel = "N",
            description = "Freezes of a batch tried before the move stops (resumable). Default: 3.")
    private Integer freezeAttempts;

    @Option(names = "--lease-seconds", paramLabel = "S",
            description = "How long this run holds the operation after its last step; if the tool dies, resume "
                    + "anywhere takes the operation over once the lease has lapsed. Default: 60.")
    private Long leaseSeconds;

    /**
     * The options given, over the runtime's defaults.
     *
     * @throws CliException (usage) naming the option whose value the runtime refuses
     */
    public MoveOptions options(MoveProgress.Listener listener) {
        MoveOptions options = DEFAULTS.listener(listener);
        try {
            if (virtualShardsPerBatch != null) {
                options = options.virtualShardsPerBatch(virtualShardsPerBatch);
            }
            if (unitsPerChunk != null) {
                options = options.unitsPerChunk(unitsPerChunk);
            }
            if (freezeAttempts != null) {
                options = options.freezeAttempts(freezeAttempts);
            }
        } catch (IllegalArgumentException e) {
            throw new CliException(ExitCodes.USAGE, "Option " + optionOf(e.getMessage()) + ": " + e.getMessage());
        }
        if (freezeTimeoutMillis != null) {
            options = options.freezeTimeout(Duration.ofMillis(positive("--freeze-timeout-ms", freezeTimeoutMillis)));
        }
        if (leaseSeconds != null) {
            options = options.lease(Duration.ofSeconds(positive("--lease-seconds", leaseSeconds)));
        }
        return options;
    }

    private static String optionOf(String message) {
        if (message.startsWith("virtualShardsPerBatch")) {
            return "--batch";
        }
        return message.startsWith("unitsPerChunk") ? "--chunk" : "--freeze-attempts";
    }

    private static long positive(String option, long value) {
        if (value < 1) {
            throw new CliException(ExitCodes.USAGE, "Option " + option + " is " + value + "; it must be at least 1");
        }
        return value;
    }
}
