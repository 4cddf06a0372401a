package org.atomicshards.samples.hello;

// tag::customer[]
import jakarta.persistence.*;
import org.atomicshards.annotations.*;

@Entity @AtomicUnit                  // the root of a unit: a customer and all that carries its key
public class Customer {
    @Id @ShardKey Long id;           // the root's key is the shard key
    String name;

    protected Customer() { }
    public Customer(Long id, String name) { this.id = id; this.name = name; }
    public String getName() { return name; }
}
// end::customer[]
