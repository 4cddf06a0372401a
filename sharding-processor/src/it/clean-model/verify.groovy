// The processor ran on the clean model (wired by the documented snippets alone): no error, no warning of ours, and the
// routing metadata the runtime reads describes the unit.
def log = new File(basedir, 'build.log').text
assert log.contains('BUILD SUCCESS')
assert !log.contains('[SHARD-')

def metadata = new File(basedir, 'target/classes/META-INF/atomic-shards/units.properties')
assert metadata.isFile() : 'the annotation processor did not run: no ' + metadata
def units = new Properties()
metadata.withReader('UTF-8') { units.load(it) }
assert units.getProperty('units') == 'com.acme.shop.Customer'
assert units.getProperty('unit.com.acme.shop.Customer.members') == 'com.acme.shop.Customer,com.acme.shop.Order'
assert units.getProperty('member.com.acme.shop.Order.key-path') == 'customer.id'
return true
