package dev.berth.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** One run of the command line through {@link Main#run}, with what it printed. */
record Run(int exit, String out, String err) {
    static Run of(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = Main.run(args, new PrintWriter(o, true), new PrintWriter(e, true));
        return new Run(code, o.toString(), e.toString());
    }
}
