package dev.rmtemu.emulator.journal;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.List;

/**
 * A run in another JVM for {@link CrossProcessTailTest}: writes
 * {@link ExportJournalTest#messages} into {@code args[0]} in bursts, pausing between them
 * so the tailing process has to wait for more.
 */
public final class JournalWriterProcess {
    private JournalWriterProcess() {
    }

    public static void main(String[] args) throws Exception {
        Path runDir = Path.of(args[0]);
        int n = Integer.parseInt(args[1]);
        int burst = Integer.parseInt(args[2]);
        List<ExportJournalTest.Msg> msgs = ExportJournalTest.messages(n);
        try (ExportJournal journal = ExportJournal.create(runDir, ExportJournalTest.kinds())) {
            UnsafeBuffer buf = new UnsafeBuffer(new byte[128]);
            for (int i = 0; i < n; i++) {
                ExportJournalTest.Msg m = msgs.get(i);
                buf.putBytes(0, m.payload());
                journal.append(journal.kinds().id(m.kind()), m.cycle(), m.switchId(), m.pipe(), buf, 0, m.payload().length);
                if (i % burst == burst - 1) {
                    Thread.sleep(20);
                }
            }
        }
    }
}
