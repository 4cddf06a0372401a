// The failed build's output must name the file, the line and the stable code of each broken rule.
def log = new File(basedir, 'build.log').text

def lineOf = { String file, String text ->
    def lines = new File(basedir, "src/main/java/com/acme/shop/" + file).readLines()
    def index = lines.findIndexOf { it.contains(text) }
    assert index >= 0 : "no line containing '" + text + "' in " + file
    return index + 1
}

def orderLine = lineOf('Order.java', 'public class Order')
def ordersLine = lineOf('Customer.java', '@OneToMany(mappedBy = "customer")')

assert log.contains('BUILD FAILURE')
assert log =~ /(?m)^\[ERROR\] .*com[\\\/]acme[\\\/]shop[\\\/]Order\.java:\[${orderLine},\d+\] \[SHARD-004\] com\.acme\.shop\.Order belongs to atomic unit com\.acme\.shop\.Customer/
assert log =~ /(?m)^\[ERROR\] .*com[\\\/]acme[\\\/]shop[\\\/]Customer\.java:\[${ordersLine},\d+\] \[SHARD-005\] Association com\.acme\.shop\.Customer\.orders/
assert !log.contains('SHARD-900')
return true
