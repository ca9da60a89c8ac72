module example.com/golden/bound

go 1.26

require example.com/shared v0.0.0

replace example.com/shared => ../../shared
