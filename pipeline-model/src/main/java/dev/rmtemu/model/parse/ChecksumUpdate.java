package dev.rmtemu.model.parse;

import java.util.List;

/**
 * A deparser checksum update ({@code hdr.ipv4.hdr_checksum = checksum.update({...})}):
 * when {@code header} is valid, {@code destination} becomes the Internet checksum
 * of {@code fields} concatenated (the header's variable-length tail included when
 * {@code withVarbit}), computed as the packet leaves. {@code metadata} names PHV fields
 * (whole 16-bit words, at word boundaries of the list) whose words join the sum: the
 * residual a parser {@code Checksum} deposited (TNA's incremental L4 checksum update).
 */
public record ChecksumUpdate(String header, List<String> fields, boolean withVarbit, String destination, List<String> metadata) {
    public ChecksumUpdate {
        fields = List.copyOf(fields);
        metadata = List.copyOf(metadata);
    }

    /** An update over header fields alone. */
    public ChecksumUpdate(String header, List<String> fields, boolean withVarbit, String destination) {
        this(header, fields, withVarbit, destination, List.of());
    }
}
