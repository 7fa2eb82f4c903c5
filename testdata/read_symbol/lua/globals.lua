function greet(name)
  print("hello " .. name)
end

local handler = function(event)
  greet(event.name)
end

callbacks = {}
callbacks.on_save = function(path)
  print(path)
end
