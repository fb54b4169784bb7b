package dev.rmtemu.programs.lossradar.control;

import dev.rmtemu.programs.lossradar.program.MeterDigest;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.rmtemu.emulator.spi.JournalDecoder;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code rmtemu collect --json} for LossRadar: a {@value LossRadarExport#KIND_DIGEST} message
 * as its meter, port, batch and IBF shape, and the digest's non-empty cells (count and xorSum
 * words, unsigned), in the layout {@link LossRadarExport} writes and its collector reads.
 */
public final class LossRadarJournalDecoder implements JournalDecoder {
    /** One non-empty IBF cell: its index (hash function × cells per hash + slot), packet count and xorSum words. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Cell(int index, long count, List<Long> xorSum) {
    }

    /** One digest: meter {@code um} or {@code dm}, port, batch, k hashes × cells per hash, signature words, meter ID. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Digest(String meter, int port, long batch, int hashes, int cellsPerHash, int words, int meterId,
                         int nonEmpty, List<Cell> cells) {
    }

    @Override
    public List<String> kinds() {
        return List.of(LossRadarExport.KIND_DIGEST);
    }

    @Override
    public Digest decode(String kind, DirectBuffer p, int offset, int length) {
        if (length < LossRadarExport.HEADER_BYTES) {
            throw new BadPayload(kind + " payload of " + length + " bytes, shorter than its " + LossRadarExport.HEADER_BYTES
                    + "-byte header");
        }
        int role = p.getByte(offset);
        int k = p.getByte(offset + 7) & 0xFF;
        int m = p.getInt(offset + 8);
        int words = p.getByte(offset + 12) & 0xFF;
        long cellBytes = (long) Integer.BYTES * (1 + words);
        if (role != MeterDigest.UM && role != MeterDigest.DM || m < 0
                || LossRadarExport.HEADER_BYTES + (long) k * m * cellBytes != length) {
            throw new BadPayload(kind + " payload of " + length + " bytes does not hold meter " + role + " with " + k + " x " + m
                    + " cells of " + words + " words");
        }
        List<Cell> cells = new ArrayList<>();
        int at = offset + LossRadarExport.HEADER_BYTES;
        for (int cell = 0; cell < k * m; cell++) {
            long count = p.getInt(at) & 0xFFFFFFFFL;
            List<Long> xor = new ArrayList<>(words);
            boolean empty = count == 0;
            for (int w = 0; w < words; w++) {
                long x = p.getInt(at + Integer.BYTES * (1 + w)) & 0xFFFFFFFFL;
                xor.add(x);
                empty &= x == 0;
            }
            if (!empty) {
                cells.add(new Cell(cell, count, xor));
            }
            at += (int) cellBytes;
        }
        return new Digest(role == MeterDigest.UM ? "um" : "dm", p.getShort(offset + 1) & 0xFFFF, p.getInt(offset + 3) & 0xFFFFFFFFL,
                k, m, words, p.getByte(offset + 13) & 0xFF, cells.size(), cells);
    }
}
