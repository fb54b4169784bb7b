package dev.rmtemu.programs.midst.control;

import dev.rmtemu.programs.midst.program.MidstPipeline;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rmtemu.emulator.spi.JournalDecoder;
import org.agrona.DirectBuffer;

import java.util.List;

/**
 * {@code rmtemu collect --json} for MIDST's four message kinds, in the layouts
 * {@link MidstCollector}, {@link DepartureTally} and {@link MidstControlPlane} write and
 * {@link MidstJournal} reads.
 */
public final class MidstJournalDecoder implements JournalDecoder {
    /** A (flow, epoch) report: the largest S_loss and S_in estimates the epoch's packets of the flow saw. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record FlowReport(String fiveTuple, int epoch, long loss, long burst) {
    }

    /** A monitoring event: {@code monitor_on}, {@code monitor_off} or {@code clean_done}, its epoch and the queue depth. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Event(String event, int epoch, long queueDepthCells) {
    }

    /** How the control plane ran the probes: every {@code probe_ns} (0: none) on {@code pipe}, or held on by the control script. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Probes(long probeNs, int pipe, boolean held) {
    }

    /** Ground truth: the packets of a flow that left the monitored port. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Departed(String fiveTuple, long departed) {
    }

    @Override
    public List<String> kinds() {
        return List.of(MidstCollector.KIND_HEAVY_LOSER, MidstCollector.KIND_EVENT, MidstControlPlane.KIND_PROBES,
                DepartureTally.KIND);
    }

    @Override
    public Object decode(String kind, DirectBuffer p, int o, int length) {
        switch (kind) {
            case MidstCollector.KIND_HEAVY_LOSER -> {
                JournalDecoder.requireLength(kind, length, MidstCollector.FLOW_PAYLOAD_BYTES);
                return new FlowReport(MidstReport.tuple(MidstJournal.flow(p, o)), p.getShort(o + 13) & 0xFFFF, p.getLong(o + 15),
                        p.getLong(o + 23));
            }
            case MidstCollector.KIND_EVENT -> {
                JournalDecoder.requireLength(kind, length, MidstCollector.EVENT_PAYLOAD_BYTES);
                int k = p.getByte(o) & 0xFF;
                String event = switch (k) {
                    case MidstPipeline.KIND_MONITOR_ON -> "monitor_on";
                    case MidstPipeline.KIND_MONITOR_OFF -> "monitor_off";
                    case MidstPipeline.KIND_CLEAN_DONE -> "clean_done";
                    default -> throw new BadPayload(kind + " with unknown event kind " + k);
                };
                return new Event(event, p.getShort(o + 1) & 0xFFFF, p.getInt(o + 3) & 0xFFFFFFFFL);
            }
            case MidstControlPlane.KIND_PROBES -> {
                JournalDecoder.requireLength(kind, length, MidstControlPlane.PROBES_PAYLOAD_BYTES);
                return new Probes(p.getLong(o), p.getInt(o + 8), p.getByte(o + 12) != 0);
            }
            case DepartureTally.KIND -> {
                JournalDecoder.requireLength(kind, length, DepartureTally.PAYLOAD_BYTES);
                return new Departed(MidstReport.tuple(MidstJournal.flow(p, o)), p.getLong(o + 13));
            }
            default -> throw new IllegalArgumentException("not a MIDST kind: " + kind);
        }
    }
}
