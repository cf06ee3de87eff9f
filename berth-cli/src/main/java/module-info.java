/**
 * Berth's command line ({@code berth}, {@link dev.berth.cli.Main}). It exports nothing: it is
 * run, not called. Picocli reads the commands' annotated fields and methods by reflection, hence
 * {@code opens dev.berth.cli} to it; {@code Interrupts} handles Ctrl-C through
 * {@code sun.misc.Signal} (module {@code jdk.unsupported}).
 */
module dev.berth.cli {
    requires dev.berth.core;
    requires dev.berth.io;
    requires com.fasterxml.jackson.core;
    requires info.picocli;
    requires jdk.unsupported;

    opens dev.berth.cli to info.picocli;
}
