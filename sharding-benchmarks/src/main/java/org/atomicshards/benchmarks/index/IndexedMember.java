package org.atomicshards.benchmarks.index;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import org.atomicshards.annotations.AtomicUnit;
import org.atomicshards.annotations.ShardIndex;
import org.atomicshards.annotations.ShardKey;

/**
 * The index benchmark's unit: keyed by its id (a {@code String}, so that the benchmark model's plain {@code Long} keys
 * name one unit only), with the same e-mail address twice, once indexed ({@code email}) and
 * once not ({@code plainEmail}), so that one query shape runs with and without the index.
 */
@Entity
@AtomicUnit
@Table(name = "indexed_member")
public class IndexedMember {

    @Id
    @ShardKey
    private String id;

    @ShardIndex(unique = true)
    @Column(name = "email", length = 64)
    private String email;

    @Column(name = "plain_email", length = 64)
    private String plainEmail;

    protected IndexedMember() {
    }

    public IndexedMember(String id, String email) {
        this.id = id;
        this.email = email;
        this.plainEmail = email;
    }

    public String getId() {
        return id;
    }

    public String getEmail() {
        return email;
    }

    public void setEmail(String email) {
        this.email = email;
    }

    public void setPlainEmail(String plainEmail) {
        this.plainEmail = plainEmail;
    }
}
