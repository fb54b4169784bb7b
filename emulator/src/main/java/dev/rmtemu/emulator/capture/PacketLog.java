package dev.rmtemu.emulator.capture;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * packets.csv.gz: one row per packet that left the switch or was dropped, in the order it did
 * (the engine's event order), written by commons-csv through gzip. The bytes depend only on the
 * run: {@link GZIPOutputStream} writes a header whose modification time is 0 and no file name.
 * Rows reuse their number buffers, so logging allocates nothing per packet beyond the library's.
 */
final class PacketLog implements AutoCloseable {
    /** The columns; a dropped packet has an empty latency and its drop time as {@code egress_time_ns}. */
    static final String[] COLUMNS = {"packet_id", "ingress_port", "ingress_time_ns", "egress_port", "egress_time_ns",
        "latency_ns", "queue_id", "drop_cause"};
    private static final int BUFFER_BYTES = 1 << 16;
    private static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder().setHeader(COLUMNS).setRecordSeparator('\n')
            .get();

    private final CSVPrinter csv;
    private final StringBuilder[] cells = new StringBuilder[COLUMNS.length];

    PacketLog(Path file) throws IOException {
        OutputStream out = new GZIPOutputStream(new BufferedOutputStream(Files.newOutputStream(file), BUFFER_BYTES),
                BUFFER_BYTES);
        this.csv = FORMAT.print(new OutputStreamWriter(out, StandardCharsets.US_ASCII));
        for (int i = 0; i < cells.length; i++) {
            cells[i] = new StringBuilder(24);
        }
    }

    /** A packet that left by {@code port} at {@code egressNs}. */
    void departed(long packet, int ingressPort, long ingressNs, int port, long egressNs, int queue) throws IOException {
        row(packet, ingressPort, ingressNs, port, egressNs, egressNs - ingressNs, queue, null);
    }

    /** A packet dropped at {@code dropNs} for {@code cause}; port and queue are negative when none was chosen. */
    void dropped(long packet, int ingressPort, long ingressNs, int port, long dropNs, int queue, String cause)
            throws IOException {
        row(packet, ingressPort, ingressNs, port, dropNs, -1, queue, cause);
    }

    private void row(long packet, int ingressPort, long ingressNs, int port, long egressNs, long latencyNs, int queue,
                     String cause) throws IOException {
        csv.print(number(0, packet));
        csv.print(number(1, ingressPort));
        csv.print(number(2, ingressNs));
        csv.print(port < 0 ? "" : number(3, port));
        csv.print(number(4, egressNs));
        csv.print(latencyNs < 0 ? "" : number(5, latencyNs));
        csv.print(queue < 0 ? "" : number(6, queue));
        csv.print(cause == null ? "" : cause);
        csv.println();
    }

    private StringBuilder number(int column, long value) {
        StringBuilder b = cells[column];
        b.setLength(0);
        return b.append(value);
    }

    @Override
    public void close() throws IOException {
        csv.close(true);
    }
}
