package org.atomicshards.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class MessageTest {

    @Test
    void codesAreUniqueAndAscending() {
        List<String> codes = Arrays.stream(Message.values()).map(Message::code).toList();

        assertThat(codes).doesNotHaveDuplicates().isSorted().allMatch(code -> code.matches("SHARD-\\d{3}"));
    }

    @ParameterizedTest
    @EnumSource(Message.class)
    void formattedMessagesStartWithTheirCode(Message message) {
        Object[] args = new Object[20];
        Arrays.fill(args, "X");
        String text = message.format(Arrays.stream(args).map(arg -> message.template().contains("%d") ? null : arg).toArray());

        assertThat(text).startsWith("[" + message.code() + "] ");
    }
}
